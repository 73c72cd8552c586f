import t from 'tap';
import { TapTally } from '../helpers/tap-tally.js';

/** tap 21's own output for: a file with a failed equal, a passing test and a thrown error, then a file that timed out. */
const STREAM = `TAP version 14
1..2
# Subtest: test/a.test.ts
    # Subtest: outer
        # Subtest: inner
            not ok 1 - one is two
              ---
              compare: ===
              at:
                fileName: test/a.test.ts
                lineNumber: 3
              source: |
                t.test('inner', async (t) => { t.equal(1, 2, 'one is two'); });
                -----------------------------------^
              diff: |
                --- expected
                +++ actual
                @@ -1,1 +1,1 @@
                -2
                +1
              ...
            
            1..1
        not ok 1 - inner # time=65.788ms
          ---
          at:
            fileName: test/a.test.ts
            lineNumber: 3
          ...
        
        1..1
    not ok 1 - outer # time=84.643ms
    # Subtest: fine
        ok 1 - should be equal
        1..1
    ok 2 - fine # time=1.2ms
    # Subtest: skipped
    ok 3 - skipped # SKIP
    # Subtest: throws
        not ok 1 - boom here
          ---
          at:
            fileName: test/a.test.ts
            lineNumber: 6
          ...
        
        1..1
    not ok 4 - throws # time=3ms
    1..4
not ok 1 - test/a.test.ts # time=2109.36ms
  ---
  exitCode: 1
  signal: null
  ...

# Subtest: test/b.test.ts
    # Subtest: hang
        not ok 1 - timeout!
          ---
          signal: SIGALRM
          expired: TAP
          ...
        
        1..1
    not ok 1 - hang # time=51.552ms
    1..1
not ok 2 - test/b.test.ts # time=5101.177ms
  ---
  exitCode: null
  signal: SIGALRM
  ...
`;

t.test('the tally counts the named tests of every file and names each failed assertion', async (t) => {
  const tally = new TapTally();
  for (const line of STREAM.split('\n')) tally.line(line);
  t.equal(tally.passed, 1, 'one named test passed (the skipped one is not counted)');
  t.equal(tally.failed, 3, 'three named tests failed');
  t.equal(tally.filesFailed, 2);
  t.same(tally.failures, [
    'test/a.test.ts › outer › inner › one is two (test/a.test.ts:3) — found 1, wanted 2',
    'test/a.test.ts › throws › boom here (test/a.test.ts:6)',
    'test/a.test.ts — exit code 1',
    'test/b.test.ts › hang › timeout! — signal SIGALRM',
    'test/b.test.ts — signal SIGALRM',
  ]);
});

t.test('the summary lists the first failures and counts the rest; nothing when all passed', async (t) => {
  const tally = new TapTally();
  for (const line of STREAM.split('\n')) tally.line(line);
  t.same(tally.summary(2), [
    '',
    'Failed:',
    '  ✗ test/a.test.ts › outer › inner › one is two (test/a.test.ts:3) — found 1, wanted 2',
    '  ✗ test/a.test.ts › throws › boom here (test/a.test.ts:6)',
    '  … and 3 more',
  ]);
  t.equal(tally.summary().length, 2 + 5, 'all five under the default limit, no "more" line');
  t.same(new TapTally().summary(), [], 'no failures: no lines');
});
