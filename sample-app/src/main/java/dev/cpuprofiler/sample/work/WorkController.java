package dev.cpuprofiler.sample.work;

import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoints that burn CPU on purpose, each a bounded amount per request (defaults: a few tens of ms here).
 * Try {@code curl 'localhost:8080/work/primes?limit=8000000'}.
 */
@RestController
@RequestMapping("/work")
public class WorkController {

    private final PrimeSieve primeSieve;
    private final PasswordHasher passwordHasher;
    private final ReportSorter reportSorter;

    public WorkController(PrimeSieve primeSieve, PasswordHasher passwordHasher, ReportSorter reportSorter) {
        this.primeSieve = primeSieve;
        this.passwordHasher = passwordHasher;
        this.reportSorter = reportSorter;
    }

    @GetMapping("/primes")
    public ResponseEntity<?> primes(@RequestParam(defaultValue = "8000000") int limit) {
        if (limit < 0 || limit > PrimeSieve.MAX_LIMIT) {
            return badRequest("limit", 0, PrimeSieve.MAX_LIMIT);
        }
        long start = System.nanoTime();
        int count = primeSieve.countPrimes(limit);
        return ResponseEntity.ok(Map.of("limit", limit, "primes", count, "millis", millisSince(start)));
    }

    @GetMapping("/hash")
    public ResponseEntity<?> hash(@RequestParam(defaultValue = "200000") int rounds,
            @RequestParam(defaultValue = "correct horse battery staple") String password) {
        if (rounds < 1 || rounds > PasswordHasher.MAX_ROUNDS) {
            return badRequest("rounds", 1, PasswordHasher.MAX_ROUNDS);
        }
        long start = System.nanoTime();
        String digest = passwordHasher.stretch(password, rounds);
        return ResponseEntity.ok(Map.of("rounds", rounds, "sha256", digest, "millis", millisSince(start)));
    }

    @GetMapping("/sort")
    public ResponseEntity<?> sort(@RequestParam(defaultValue = "100000") int size) {
        if (size < 0 || size > ReportSorter.MAX_SIZE) {
            return badRequest("size", 0, ReportSorter.MAX_SIZE);
        }
        long start = System.nanoTime();
        ReportSorter.ReportSummary summary = reportSorter.sortLargeReport(size);
        return ResponseEntity.ok(Map.of("size", size, "first", summary.first() == null ? "" : summary.first(),
                "last", summary.last() == null ? "" : summary.last(), "millis", millisSince(start)));
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static ResponseEntity<Map<String, String>> badRequest(String name, int min, int max) {
        return ResponseEntity.badRequest().body(Map.of("error", name + " must be between " + min + " and " + max));
    }
}
