/**
 * Who may move a session from which state to which. Organizers (owner, organizers, coorganizers and
 * administrators) review; the session's speakers submit and withdraw. Staying in the same state is
 * always allowed; any other move missing from both tables is impossible (422), and a move only the
 * other party may make is forbidden (403). A new session starts in draft or in a state organizers
 * may move a draft to.
 *
 * The tables hold every move of the reference's (app/api/sessions.py, SESSION_STATE_DICT), among them the
 * speaker's draft -> pending (its submission): organizers withdraw a session and reinstate a withdrawn one (to pending,
 * accepted, rejected or canceled; the reference's withdrawn mail says "The status change was done by
 * event organizers"), and speakers withdraw from any state past draft. Withdrawn is final for speakers.
 * Beyond the reference: organizers move drafts (the reference allowed none, so a draft an organizer
 * made could never leave draft), and `submitted`, which the reference lacks, is where a speaker's move
 * out of draft may also lead (as its `pending` does) and moves as pending does.
 */
export const SESSION_STATES = [
  'draft',
  'pending',
  'submitted',
  'accepted',
  'confirmed',
  'rejected',
  'canceled',
  'withdrawn',
] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** The states in which a session is public: shown to everyone, and in the event's schedule (src/schedule). */
export const PUBLIC_STATES: SessionState[] = ['accepted', 'confirmed'];

export const ORGANIZER_MOVES: Record<SessionState, SessionState[]> = {
  draft: ['pending', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled'],
  pending: ['draft', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled', 'withdrawn'],
  submitted: ['pending', 'accepted', 'confirmed', 'rejected', 'canceled', 'withdrawn'],
  accepted: ['pending', 'confirmed', 'rejected', 'canceled', 'withdrawn'],
  confirmed: ['pending', 'accepted', 'rejected', 'canceled', 'withdrawn'],
  rejected: ['pending', 'accepted', 'confirmed', 'withdrawn'],
  canceled: ['pending', 'accepted', 'confirmed', 'rejected', 'withdrawn'],
  withdrawn: ['pending', 'accepted', 'rejected', 'canceled'],
};

export const SPEAKER_MOVES: Record<SessionState, SessionState[]> = {
  draft: ['pending', 'submitted'],
  pending: ['withdrawn'],
  submitted: ['withdrawn'],
  accepted: ['withdrawn'],
  confirmed: ['withdrawn'],
  rejected: ['withdrawn'],
  canceled: ['withdrawn'],
  withdrawn: [],
};

/** The tables as Markdown, for the OpenAPI description. */
export function transitionTable(): string {
  const cell = (moves: SessionState[]) => (moves.length ? moves.join(', ') : '-');
  const rows = SESSION_STATES.map((s) => `| ${s} | ${cell(ORGANIZER_MOVES[s])} | ${cell(SPEAKER_MOVES[s])} |`);
  return [
    '| from | organizers may move to | speakers may move to |',
    '|---|---|---|',
    ...rows,
    '',
    'A new session starts in draft or in a state organizers may move a draft to; withdrawn is final for speakers.',
  ].join('\n');
}
