// The closing lines of a CI run: each failed test (file, name, the first lines of its error), then
// one line per suite and the total. Only the end of the log may be kept, so failures are named
// here, next to the counts, rather than only in the reporter's output far above.
import { existsSync, readFileSync } from 'node:fs';

const SUITES = [
  ['app', 'test-results/vitest.json'],
  ['models', 'test-results/vitest-models.json'],
  ['node22', 'test-results/vitest-node22.json'],
];
const ERROR_LINES = 6;

const total = { passed: 0, failed: 0, skipped: 0 };
const counts = [];
for (const [label, file] of SUITES) {
  if (!existsSync(file)) {
    counts.push(`${label}: no report (${file})`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const suite of report.testResults) {
    const where = suite.name.replace(`${process.cwd()}/`, '');
    // A file that failed to load has no assertions, only its own message.
    if (suite.status === 'failed' && suite.assertionResults.every((t) => t.status !== 'failed')) {
      console.log(`FAILED ${label} ${where}: ${firstLines(suite.message)}`);
    }
    for (const test of suite.assertionResults) {
      if (test.status !== 'failed') continue;
      console.log(`FAILED ${label} ${where} > ${test.fullName}`);
      for (const message of test.failureMessages ?? []) console.log(`  ${firstLines(message)}`);
    }
  }
  const c = { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
  counts.push(`${label}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  for (const k of Object.keys(total)) total[k] += c[k];
}
for (const line of counts) console.log(line);
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);

function firstLines(text = '') {
  return text.split('\n').slice(0, ERROR_LINES).join('\n  ');
}
