/** A time as the reference wrote it (Java `Timestamp.toString()`, here in UTC): `2019-05-14 10:11:12.123`. */
export const javaTimestamp = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');
