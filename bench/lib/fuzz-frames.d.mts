export declare const vendoredCaptures: string;
export declare function rng(seed: number): () => number;
export declare function requestFrames(dir?: string): Buffer[];
export declare function mutate(seeds: Buffer[], random: () => number): Buffer;
