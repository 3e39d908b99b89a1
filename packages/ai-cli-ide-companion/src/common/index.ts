// IDE mode's own common code: the diagnostic report.
export * from './diagnostic-report';
