package dev.cpuprofiler.benchmarks.whatchanged;

/** The application's two endpoints: the name profiles give each, its path, and its name in the load and the tally. */
enum Endpoint {
    ORBIT("GET /orbit", "/orbit", "orbit"),
    LEDGER("GET /ledger", "/ledger", "ledger");

    /** As a profile names it: method and URI template. */
    final String profileName;
    final String path;
    /** Its name in {@link dev.cpuprofiler.fixtures.OpenLoopLoad} and in {@code GET /tally}. */
    final String key;

    Endpoint(String profileName, String path, String key) {
        this.profileName = profileName;
        this.path = path;
        this.key = key;
    }
}
