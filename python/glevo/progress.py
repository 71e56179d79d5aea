"""Progress: the C library calls a family's progress function (glevo_*_progress_fn) from
inside a step; here that call reaches the user's callback and a tqdm bar (when tqdm is
importable and progress=True). An exception raised there (KeyboardInterrupt included) is
kept and raised once the C call has returned, so a run always stops between steps, in a
state that can be read, saved and stepped on."""
import sys


class Reporter:
    def __init__(self, progress, owner):
        if progress is not None and progress is not True and progress is not False \
                and not callable(progress):
            raise TypeError(f"{owner}: progress must be a callable, True (a bar) or None, "
                            f"not {type(progress).__name__}")
        self.callback = progress if callable(progress) else None
        self.bar_wanted = progress is True
        self.bar = None
        self.pending = None
        self.history = []

    def on_error(self, exc_type, exc, tb):
        if self.pending is None:
            self.pending = exc if exc is not None else exc_type()
        return None

    def begin(self, total, start=0):
        self.start = start
        if self.bar_wanted and total:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="gen", leave=False)
            except ImportError:
                self.bar = _TextBar(total)

    def report(self, generation, best, *extra):
        self.history.append((generation, best) + extra)
        if self.bar is not None:
            self.bar.update(max(0, generation - self.start - self.bar.n))
            self.bar.set_postfix(best=f"{best:.9g}")
        if self.callback is not None:
            self.callback(generation, best, *extra)

    def end(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def raise_pending(self):
        if self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc


class _TextBar:
    """A one-line stand-in for tqdm on stderr."""

    def __init__(self, total):
        self.total, self.n, self.postfix = total, 0, ""

    def update(self, k):
        self.n += k

    def set_postfix(self, best):
        sys.stderr.write(f"\rglevo: {self.n}/{self.total} generations, best {best}")
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")
