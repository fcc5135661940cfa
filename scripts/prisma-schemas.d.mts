export declare const root: string;
export declare const providers: ('sqlite' | 'postgresql')[];
export declare function schemaPath(provider: string): string;
export declare function renderSchema(provider: string): string;
export declare function writeSchemas(): void;
