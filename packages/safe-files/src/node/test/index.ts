export * from './hostile-files';
export * from './temporary-home';
