// The Node declarations the example programs use, for type-checking them where
// @types/node is not installed (Debian has no package of it).

declare module "node:path" {
  export function dirname(path: string): string;
  export function join(...paths: string[]): string;
}
declare module "node:url" {
  export function fileURLToPath(url: string | URL): string;
}
declare module "node:util" {
  export function parseArgs(config: { args?: string[]; options: { [name: string]: { type: "string" | "boolean"; default?: string | boolean; short?: string } }; strict?: boolean; allowPositionals?: boolean }): {
    // @types/node types each value after its option; a stand-in leaves them open.
    values: { [name: string]: any };
    positionals: string[];
  };
}
interface ImportMeta {
  url: string;
}
interface URL {
  href: string;
}
declare var URL: { new (url: string, base?: string | URL): URL };
declare var console: { log(...data: unknown[]): void; error(...data: unknown[]): void };
declare var process: { argv: string[]; env: { [name: string]: string | undefined }; exitCode?: number; exit(code?: number): never };
