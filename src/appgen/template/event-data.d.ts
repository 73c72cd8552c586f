// Types of event-data.js, which the build imports and the app loads in the browser as it is.

export interface EventData {
  event: { id: string; name: string; description: string; starts_at: string; ends_at: string; timezone: string; location: string; logo: string | null };
  sessions: {
    id: string;
    title: string;
    subtitle: string;
    abstract: string;
    starts_at: string;
    ends_at: string;
    track: string | null;
    room: string | null;
    speakers: string[];
  }[];
  speakers: { id: string; name: string; photo: string | null; position: string; organisation: string; biography: string }[];
  tracks: { id: string; name: string; color: string }[];
  rooms: { id: string; name: string }[];
  sponsors: { id: string; name: string; url: string | null; logo: string | null; type: string; level: number }[];
}

export const PAGE_SIZE: number;
export const MAX_PAGES: number;
export function eventUrl(endpoint: string): string;
export function loadEvent(endpoint: string, getJson: (url: string) => Promise<unknown>, progress?: (text: string) => void): Promise<EventData>;
export function dayOf(iso: string, timezone: string): string;
export function timeOf(iso: string, timezone: string): string;
export function datesOf(event: EventData['event']): string;
