// What other Theia extensions of this repository use from the companion's frontend.
export * from './diff-review/diff-review-service';
