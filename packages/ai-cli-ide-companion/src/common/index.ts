export * from './ide-companion-protocol';
export * from './open-editors-model';
