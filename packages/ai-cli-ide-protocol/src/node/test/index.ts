export * from './temporary-home';
export * from './hostile-files';
