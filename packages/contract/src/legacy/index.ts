/** Schemas of what the original SIGAF 1.8.6 client reads, one module per section of CLIENT_CONTRACT.md §2. */
export * from './common.js';
