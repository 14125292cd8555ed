/** Schemas of what the original SIGAF 1.8.6 client reads, one module per section of CLIENT_CONTRACT.md §2. */
export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './catalogues.js';
export * from './sections.js';
export * from './platforms.js';
export * from './categories.js';
export * from './courses.js';
export * from './activities.js';
export * from './files.js';
export * from './dashboard.js';
export * from './reports.js';
export * from './tickets.js';
export * from './ticket-details.js';
export * from './locks.js';
