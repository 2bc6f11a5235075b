// Where `Bunting.spawn` finds the server: the `binary` option, then BUNTING_BIN,
// then the PATH, then `.build/release/bunting` in the working directory or one
// of its parents (a checkout of the repository after `swift build -c release`).

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { BuntingBinaryNotFoundError } from "./errors.js";

/**
 * @param {{binary?: string, env?: NodeJS.ProcessEnv, cwd?: string}} [options]
 * @returns {string} the path of an executable file
 */
export function findBinary({ binary, env = process.env, cwd = process.cwd() } = {}) {
  const searched = [];
  // An explicit choice is never second-guessed: if it is wrong, say so.
  for (const [source, candidate] of [
    ["binary option", binary],
    ["BUNTING_BIN", env.BUNTING_BIN],
  ]) {
    if (candidate === undefined || candidate === "") continue;
    const path = resolve(cwd, candidate);
    if (isExecutableFile(path)) return path;
    throw new BuntingBinaryNotFoundError([`${path} (${source}): not an executable file`]);
  }
  for (const directory of (env.PATH ?? "").split(delimiter)) {
    if (directory === "" || !isAbsolute(directory)) continue;
    const path = join(directory, "bunting");
    if (searched.includes(path)) continue;
    if (isExecutableFile(path)) return path;
    searched.push(path);
  }
  for (let directory = resolve(cwd); ; directory = dirname(directory)) {
    const path = join(directory, ".build", "release", "bunting");
    if (isExecutableFile(path)) return path;
    searched.push(path);
    if (dirname(directory) === directory) break;
  }
  throw new BuntingBinaryNotFoundError(searched);
}

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
