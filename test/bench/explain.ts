import postgres from 'postgres';

export interface Plan {
  statement: string;
  lines: string[];
  /** Tables the plan reads with a sequential scan. */
  seqScans: string[];
}

/**
 * The generic plans (PostgreSQL 16+: `EXPLAIN (GENERIC_PLAN)`, no parameter values needed) of the
 * captured statements that begin with SELECT or WITH (the engine's compiled reads, and the writes that
 * answer through one: EXPLAIN alone runs nothing), so a benchmark can show which ones scan whole tables.
 */
export async function explainAll(url: string, statements: string[], randomPageCost: number): Promise<Plan[]> {
  // Planned as the service's own connections plan them (DB_RANDOM_PAGE_COST).
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { random_page_cost: randomPageCost } });
  try {
    const plans: Plan[] = [];
    for (const statement of statements) {
      if (!/^\s*(select|with)\b/i.test(statement)) continue;
      const rows = await sql.unsafe(`explain (generic_plan) ${statement}`);
      const lines = rows.map((r) => String(r['QUERY PLAN']));
      const seqScans = lines.flatMap((l) => /Seq Scan on (\S+)/.exec(l)?.[1] ?? []);
      plans.push({ statement, lines, seqScans });
    }
    return plans;
  } finally {
    await sql.end();
  }
}
