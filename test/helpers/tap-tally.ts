/**
 * Reads tap's TAP stream line by line: counts the named tests of every file (indent level 1) and
 * keeps one line per failed assertion (its subtest path, where, found/wanted or message), so the
 * end of the output names what failed even when only the tail of a CI log is kept.
 */
export class TapTally {
  passed = 0;
  failed = 0;
  filesFailed = 0;
  readonly failures: string[] = [];
  private readonly names: string[] = [];
  private yaml: {
    indent: number;
    path: string;
    started: boolean;
    block: string;
    fields: Record<string, string>;
  } | null = null;

  line(line: string) {
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    if (this.yaml && !this.yaml.started && !(indent === this.yaml.indent && text === '---')) this.endYaml();
    if (this.yaml) {
      const yaml = this.yaml;
      if (indent === yaml.indent && text === '---') yaml.started = true;
      else if (indent === yaml.indent && text === '...') this.endYaml();
      else if (indent === yaml.indent) {
        const field = /^(\w+):(?: (.+))?$/.exec(text);
        yaml.block = field?.[1] ?? '';
        if (field?.[2] !== undefined) yaml.fields[field[1]!] = field[2];
      } else if (indent === yaml.indent + 2 && yaml.block === 'at') {
        const at = /^(fileName|lineNumber): (.+)$/.exec(text);
        if (at) yaml.fields[at[1]!] = at[2]!;
      } else if (indent === yaml.indent + 2 && yaml.block === 'diff') {
        // The first removed and added lines of the diff.
        const diff = /^([-+])(?![-+]{2} )(.*)$/.exec(text);
        if (diff) yaml.fields[diff[1] === '-' ? 'wanted' : 'found'] ??= diff[2]!.trim();
      }
      return;
    }
    const subtest = /^# Subtest: (.*)$/.exec(text);
    if (subtest) {
      this.names.length = indent / 4;
      this.names.push(subtest[1]!);
      return;
    }
    const result = /^(not )?ok \d+ - (.*)$/.exec(text);
    if (!result) return;
    const notOk = Boolean(result[1]) && !/# (TODO|SKIP)/.test(text);
    if (indent === 4) {
      if (notOk) this.failed++;
      else if (!/# SKIP/.test(text)) this.passed++;
    } else if (indent === 0 && notOk) this.filesFailed++;
    // A subtest's own line ends in `# time=`; an assertion's does not (a file that died has only its own).
    if (notOk && (!/# time=/.test(text) || indent === 0)) {
      const title = result[2]!.replace(/ # time=.*$/, '');
      const path = [...this.names.slice(0, indent / 4), title].join(' › ');
      this.yaml = { indent: indent + 2, path, started: false, block: '', fields: {} };
      this.failures.push(path);
    }
  }

  /** The lines printed above `N passed, N failed`: the first `limit` failures, then how many more. */
  summary(limit = 12): string[] {
    if (this.failures.length === 0) return [];
    const more = this.failures.length - limit;
    return [
      '',
      'Failed:',
      ...this.failures.slice(0, limit).map((f) => `  ✗ ${f}`),
      ...(more > 0 ? [`  … and ${more} more`] : []),
    ];
  }

  private endYaml() {
    const { path, fields } = this.yaml!;
    const where = fields.fileName ? ` (${fields.fileName}:${fields.lineNumber ?? '?'})` : '';
    const ended =
      (fields.signal && fields.signal !== 'null' && `signal ${fields.signal}`) ||
      (fields.exitCode && `exit code ${fields.exitCode}`) ||
      (fields.expired && `expired: ${fields.expired}`);
    const detail =
      fields.found !== undefined ? `found ${fields.found}, wanted ${fields.wanted ?? '?'}` : (fields.message ?? ended);
    this.failures[this.failures.length - 1] = `${path}${where}${detail ? ` — ${detail}` : ''}`.slice(0, 400);
    this.yaml = null;
  }
}
