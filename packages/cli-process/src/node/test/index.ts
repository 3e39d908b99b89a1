export * from './dead-pid';
export * from './until';
