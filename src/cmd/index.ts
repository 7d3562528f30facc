// Entry points: each program only parses its flags into a library's options and runs it.

export * from './apiserver-flags.ts';
