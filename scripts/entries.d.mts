export declare const CLI_ENTRIES: Record<string, string>;
export declare const LIB_ENTRIES: Record<string, string>;
export declare const FUNCTION_ENTRIES: string[];
