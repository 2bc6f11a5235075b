// Keeps the last lines a child wrote to stderr, so that an error can say why the
// server went away; reading them also keeps the pipe from filling up and
// blocking the server's logging.

export class StderrTail {
  #lines = [];
  #partial = "";
  #limit;

  /** @param {number} limit how many lines to keep */
  constructor(limit) {
    this.#limit = limit;
  }

  /**
   * @param {string} text the next piece of stderr, decoded
   * @returns {string[]} the lines completed by it
   */
  push(text) {
    const parts = (this.#partial + text).split("\n");
    this.#partial = parts.pop();
    for (const line of parts) this.#keep(line);
    return parts;
  }

  /** @returns {string | undefined} the unfinished last line, now taken as a line */
  end() {
    const rest = this.#partial;
    this.#partial = "";
    if (rest === "") return undefined;
    this.#keep(rest);
    return rest;
  }

  /** The kept lines, oldest first (the unfinished one included). */
  get lines() {
    const lines = this.#lines.slice();
    if (this.#partial !== "") lines.push(this.#partial);
    return this.#limit > 0 ? lines.slice(-this.#limit) : [];
  }

  #keep(line) {
    this.#lines.push(line);
    // Trimmed in steps, not on every line: a debug log writes many.
    if (this.#lines.length > 2 * this.#limit) this.#lines = this.#lines.slice(-this.#limit);
  }
}
