/**
 * The service's translatable texts as gettext catalogues (the reference's app/translations, which its
 * admin_translations.py zips): the subjects and messages of the mails it sends (plugins/mail-choices.ts) and of the
 * session state mails organizers send (src/resources/sessions/mails.ts). English is the source language.
 */
import { MESSAGE_ACTIONS } from '../../../plugins/mail-choices.js';
import { SESSION_MAILS } from '../../resources/sessions/mails.js';
import { SESSION_STATES } from '../../resources/sessions/states.js';

/** A text and where it is used (the catalogue's `#.` comment). */
interface Entry {
  context: string;
  text: string;
}

export function catalogueEntries(): Entry[] {
  const entries: Entry[] = [];
  for (const kind of MESSAGE_ACTIONS) {
    entries.push({ context: `${kind.action}: subject`, text: kind.subject });
    entries.push({ context: `${kind.action}: message`, text: kind.message });
  }
  for (const state of SESSION_STATES) {
    entries.push({ context: `session_state_change ${state}: subject`, text: SESSION_MAILS[state].subject });
    entries.push({ context: `session_state_change ${state}: message`, text: SESSION_MAILS[state].message });
  }
  // A text used twice is one message of the catalogue.
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.text) && seen.add(e.text));
}

const quoted = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** A gettext catalogue: the template (`msgstr` empty) or a language's, whose texts are the English ones. */
export function catalogue(language?: string): string {
  const header = [
    'msgid ""',
    'msgstr ""',
    '"Project-Id-Version: open-event\\n"',
    ...(language ? [`"Language: ${language}\\n"`] : []),
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
  ].join('\n');
  const messages = catalogueEntries().map(
    (e) => `#. ${e.context}\nmsgid ${quoted(e.text)}\nmsgstr ${language ? quoted(e.text) : '""'}`,
  );
  return `${[header, ...messages].join('\n\n')}\n`;
}
