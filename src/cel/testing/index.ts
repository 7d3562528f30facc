// Test helpers for the CEL layer; imported by tests only (never by src/cel/ code or its users).
export { type Evaluator, evaluator } from './eval.ts';
export { SPEC_LITERAL_EXTRA, specCost, specRange } from './spec-literals.ts';
