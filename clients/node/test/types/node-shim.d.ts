// The few Node declarations index.d.ts uses, for type-checking it where
// @types/node is not installed. Users of the package have @types/node.

declare module "node:events" {
  export class EventEmitter {
    on(name: string | symbol, listener: (...args: any[]) => void): this;
    once(name: string | symbol, listener: (...args: any[]) => void): this;
    off(name: string | symbol, listener: (...args: any[]) => void): this;
    emit(name: string | symbol, ...args: any[]): boolean;
    listenerCount(name: string | symbol): number;
  }
}

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}
declare var AbortSignal: { timeout(ms: number): AbortSignal };

interface SymbolConstructor {
  readonly asyncDispose: unique symbol;
}
