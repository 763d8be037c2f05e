export declare const SQLITE_HEAP_GATE: string;
export declare function withAutogates(config: Uint8Array, gates: readonly string[]): Buffer;
export declare function autogatesOf(config: Uint8Array): string[];
