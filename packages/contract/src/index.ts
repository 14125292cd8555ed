export * from './constants.js';
export * from './roles.js';
export * from './messages.js';
export * from './envelope.js';
export * from './auth.js';
export * from './rut.js';
export * from './regions.js';
export * from './navigation.js';
