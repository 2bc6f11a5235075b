// The filters of `waitFor`: each field given must equal the event's field (or be
// one of a list of values), and `predicate`, when given, must return true.

const FIELDS = ["type", "channel", "reason", "action", "subscriptionId"];
const OPTIONS = new Set([...FIELDS, "predicate", "timeout", "signal"]);

/**
 * @param {Record<string, unknown>} filter
 * @returns {(event: any) => boolean}
 */
export function eventMatcher(filter) {
  if (filter === null || typeof filter !== "object") throw new TypeError("waitFor takes an object of filters");
  for (const key of Object.keys(filter)) {
    // A misspelt filter would otherwise match every event.
    if (!OPTIONS.has(key)) throw new TypeError(`waitFor: unknown filter ${JSON.stringify(key)}`);
  }
  const checks = [];
  for (const key of FIELDS) {
    const wanted = filter[key];
    if (wanted === undefined) continue;
    checks.push(Array.isArray(wanted) ? (event) => wanted.includes(event[key]) : (event) => event[key] === wanted);
  }
  if (filter.predicate !== undefined) {
    if (typeof filter.predicate !== "function") throw new TypeError("waitFor: predicate must be a function");
    checks.push((event) => filter.predicate(event) === true);
  }
  return (event) => checks.every((check) => check(event));
}

/** @returns {string} what a waiter waits for, for its timeout message */
export function describeFilter(filter) {
  const shown = {};
  for (const key of FIELDS) if (filter[key] !== undefined) shown[key] = filter[key];
  const predicate = filter.predicate ? " and its predicate" : "";
  return `an event ${JSON.stringify(shown)}${predicate}`;
}
