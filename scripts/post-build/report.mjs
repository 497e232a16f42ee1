// The hook's messages: what it did, or why it stops the build.

export function note(message) {
  console.log(`post-build: ${message}`);
}

/** Stops the build, saying why. */
export function fail(message) {
  console.error(`post-build: ${message}`);
  process.exit(1);
}
