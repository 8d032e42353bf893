package dev.cpuprofiler.sample.demo;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The sample's self-made load, under {@code sample.demo}. */
@ConfigurationProperties("sample.demo")
public class DemoProperties {

    /** Whether the app loads itself over HTTP once it is ready, so the profiler has something to catch. */
    private boolean enabled = false;

    /** How long to stay idle after start-up before the load begins, so the log shows the CPU average rise. */
    private Duration quietPeriod = Duration.ofSeconds(10);

    /** The longest the load runs, whatever happens. */
    private Duration maxBusyPeriod = Duration.ofMinutes(2);

    /** Whether the load stops as soon as a CPU-triggered profile is recorded. */
    private boolean stopAfterProfile = true;

    /** How many client threads send requests, each one request at a time (each busy request uses about one CPU). */
    private int clientThreads = 2;

    /** How often the load logs its progress and the CPU the profiler sees. */
    private Duration progressInterval = Duration.ofSeconds(10);

    /** {@code limit} of each {@code /work/primes} request. */
    private int primesLimit = 8_000_000;

    /** {@code rounds} of each {@code /work/hash} request. */
    private int hashRounds = 200_000;

    /** {@code size} of each {@code /work/sort} request. */
    private int sortSize = 100_000;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getQuietPeriod() {
        return quietPeriod;
    }

    public void setQuietPeriod(Duration quietPeriod) {
        this.quietPeriod = quietPeriod;
    }

    public Duration getMaxBusyPeriod() {
        return maxBusyPeriod;
    }

    public void setMaxBusyPeriod(Duration maxBusyPeriod) {
        this.maxBusyPeriod = maxBusyPeriod;
    }

    public boolean isStopAfterProfile() {
        return stopAfterProfile;
    }

    public void setStopAfterProfile(boolean stopAfterProfile) {
        this.stopAfterProfile = stopAfterProfile;
    }

    public int getClientThreads() {
        return clientThreads;
    }

    public void setClientThreads(int clientThreads) {
        if (clientThreads < 1 || clientThreads > 16) {
            throw new IllegalArgumentException("sample.demo.client-threads must be between 1 and 16");
        }
        this.clientThreads = clientThreads;
    }

    public Duration getProgressInterval() {
        return progressInterval;
    }

    public void setProgressInterval(Duration progressInterval) {
        this.progressInterval = progressInterval;
    }

    public int getPrimesLimit() {
        return primesLimit;
    }

    public void setPrimesLimit(int primesLimit) {
        this.primesLimit = primesLimit;
    }

    public int getHashRounds() {
        return hashRounds;
    }

    public void setHashRounds(int hashRounds) {
        this.hashRounds = hashRounds;
    }

    public int getSortSize() {
        return sortSize;
    }

    public void setSortSize(int sortSize) {
        this.sortSize = sortSize;
    }
}
