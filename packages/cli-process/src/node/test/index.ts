export * from './dead-pid';
