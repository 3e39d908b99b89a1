export * from './bench-floor-protocol';
