export * from './ide-companion-protocol';
