package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two endpoints whose CPU per request is known and set per request: {@code GET /orbit?cost=N} burns N ×
 * {@link #ORBIT_MILLIS} ms of its thread's CPU in {@link OrbitKernel#step}, {@code GET /ledger?cost=N} N ×
 * {@link #LEDGER_MILLIS} ms in {@link LedgerKernel#sum} ({@code cost} 0 to {@value #MAX_COST}, default 1; 0 is the
 * request alone, no kernel, which warms the request's path; anything else is a 400 that says so). {@code GET /tally}
 * answers what they burned so far, per endpoint, as measured. {@link WhatChangedScenario} says why these costs.
 */
@RestController
class OrbitLedgerController {

    /** CPU milliseconds of one {@code /orbit} request at cost 1. */
    static final int ORBIT_MILLIS = 10;
    /** CPU milliseconds of one {@code /ledger} request at cost 1. */
    static final int LEDGER_MILLIS = 10;
    static final int MAX_COST = 100;

    private final CpuBurner orbit = new CpuBurner(OrbitKernel::step);
    private final CpuBurner ledger = new CpuBurner(LedgerKernel::sum);
    private final CpuTally tally = new CpuTally("orbit", "ledger");

    @GetMapping(path = "/orbit", produces = MediaType.TEXT_PLAIN_VALUE) // never markup: the 400 quotes the cost
    ResponseEntity<String> orbit(@RequestParam(defaultValue = "1") String cost) {
        return serve("orbit", orbit, ORBIT_MILLIS, cost);
    }

    @GetMapping(path = "/ledger", produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<String> ledger(@RequestParam(defaultValue = "1") String cost) {
        return serve("ledger", ledger, LEDGER_MILLIS, cost);
    }

    @GetMapping("/tally")
    Map<String, Map<String, Long>> tally() {
        return tally.snapshot();
    }

    private ResponseEntity<String> serve(String endpoint, CpuBurner burner, int millis, String cost) {
        int n;
        try {
            n = Integer.parseInt(cost.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > MAX_COST) {
            return ResponseEntity.badRequest().body("cost must be a whole number from 0 to " + MAX_COST + ", was '"
                    + cost + "'\n");
        }
        long burned = burner.burn(n * millis * 1_000_000L);
        tally.add(endpoint, burned);
        return ResponseEntity.ok(endpoint + " " + burned / 1000 + " us CPU\n");
    }
}
