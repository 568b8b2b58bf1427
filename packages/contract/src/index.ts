export * from './roles';
export * from './limits';
export * from './messages';
export * from './errors';
export * from './search';
export * from './users';
export * from './games';
export * from './versions';
