/**
 * Who may move a session from which state to which. Organizers (owner, organizers, coorganizers and
 * administrators) review; the session's speakers submit and withdraw. Staying in the same state is
 * always allowed; any other move missing from both tables is impossible (422), and a move only the
 * other party may make is forbidden (403). A new session starts in draft or in a state organizers
 * may move a draft to; a withdrawn session stays withdrawn.
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
  pending: ['draft', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled'],
  submitted: ['pending', 'accepted', 'confirmed', 'rejected', 'canceled'],
  accepted: ['pending', 'confirmed', 'rejected', 'canceled'],
  confirmed: ['accepted', 'rejected', 'canceled'],
  rejected: ['pending', 'accepted', 'confirmed'],
  canceled: ['pending', 'accepted', 'confirmed'],
  withdrawn: [],
};

export const SPEAKER_MOVES: Record<SessionState, SessionState[]> = {
  draft: ['submitted'],
  pending: ['withdrawn'],
  submitted: ['withdrawn'],
  accepted: ['withdrawn'],
  confirmed: ['withdrawn'],
  rejected: [],
  canceled: [],
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
    'A new session starts in draft or in a state organizers may move a draft to; withdrawn is final.',
  ].join('\n');
}
