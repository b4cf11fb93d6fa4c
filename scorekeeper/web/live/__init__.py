"""Following a game live: polls answered below Flask, in the event loop, kept answers, the shed."""
