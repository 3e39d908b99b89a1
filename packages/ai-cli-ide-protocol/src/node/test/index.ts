export * from './temporary-home';
