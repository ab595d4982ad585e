// The package version, in a module of its own so that the control API can
// report it without importing the public entry point (which imports it).
export const version = '0.1.0';
