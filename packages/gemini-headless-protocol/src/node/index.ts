// The headless CLI as a process: started without a shell in its own process group, ended with it.
export * from './headless-gemini-process';
