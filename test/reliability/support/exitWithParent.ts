/**
 * Preloaded (`--import`) into the api children of the reliability tests: if the mocha process that
 * spawned this one dies without cleaning up (a crash, a kill -9 of the run), the child ends too instead
 * of holding its port and database connections as an orphan. (`process.ppid` is not reliable for this:
 * inside the api process it keeps answering the dead parent's pid, so the parent is probed instead.)
 */
const parent = process.ppid;

function parentAlive(): boolean {
  try {
    process.kill(parent, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

setInterval(() => {
  if (!parentAlive()) process.exit(70);
}, 500).unref();
