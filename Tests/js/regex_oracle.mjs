// Answers RegExp.prototype.test for Bunting's regular expression tests.
//
// Usage: node regex_oracle.mjs < cases.ndjson
//
// Each input line is [pattern, flags, text]; each output line is true or
// false (the pattern matched somewhere in the text), or "invalid" when
// `new RegExp(pattern, flags)` throws, as GrowthBook's JavaScript SDK builds
// the expressions of `$regex` and `$regexi`.
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
for await (const line of lines) {
  if (!line.trim()) continue;
  const [pattern, flags, text] = JSON.parse(line);
  let answer;
  try {
    answer = new RegExp(pattern, flags).test(text);
  } catch (e) {
    answer = "invalid";
  }
  out.push(JSON.stringify(answer));
}
process.stdout.write(out.join("\n") + "\n");
