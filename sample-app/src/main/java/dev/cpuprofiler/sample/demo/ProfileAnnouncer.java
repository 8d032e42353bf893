package dev.cpuprofiler.sample.demo;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Tells the user where to look: on start, the status and flame graph URLs; when a profile is recorded, its id,
 * what it found, and the URLs to open it.
 */
@Component
public class ProfileAnnouncer {

    private static final Logger log = LoggerFactory.getLogger(ProfileAnnouncer.class);

    private final ObjectProvider<CpuProfiler> cpuProfiler;
    private final ProfilerUrls urls;

    public ProfileAnnouncer(ObjectProvider<CpuProfiler> cpuProfiler, ProfilerUrls urls) {
        this.cpuProfiler = cpuProfiler;
        this.urls = urls;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void announce() {
        CpuProfiler profiler = cpuProfiler.getIfAvailable();
        if (profiler == null) {
            log.info("cpuprofiler is switched off (profiler.enabled=false): nothing will be profiled");
            return;
        }
        profiler.addSessionEndListener(this::sessionEnded);
        CpuProfilerOptions o = profiler.options();
        log.info("""
                cpuprofiler sample is ready. Where to look:
                  profiler status: {}
                  flame graph:     {}  (once the first profile is recorded)
                  CPU-burning endpoints: {}/work/primes?limit=8000000  {}/work/hash?rounds=200000  {}/work/sort?size=100000
                  A profile starts by itself when the CPU average over {} stays above {}% (CPU source: {}, {} CPUs); it records \
                for {}, then the trigger rests for {}.""",
                urls.status(), urls.profile("latest", "html"), urls.app(), urls.app(), urls.app(),
                Durations.human(o.getAverageWindow()), fmt(o.getThreshold()),
                profiler.status().cpu().source(), fmt(profiler.status().cpu().effectiveCpuCount()),
                Durations.human(o.getDuration()), Durations.human(o.getCooldown()));
    }

    void sessionEnded(SessionTrigger trigger, RunningSession session, SessionOutcome outcome) {
        String what = trigger == SessionTrigger.MANUAL ? "On-demand"
                : trigger == SessionTrigger.REFERENCE ? "Reference-of-normal" : trigger + "-triggered";
        if (outcome.failed() && outcome.reason() != null && outcome.reason().startsWith("cancelled")) {
            log.info(trigger == SessionTrigger.REFERENCE ? "The reference of normal {} gave way ({}); it is tried again "
                    + "at a later calm moment" : what + " profiling session {} was {}",
                    session == null ? "(not started)" : session.id(), outcome.reason());
            return;
        }
        if (outcome.failed() || outcome.profileId() == null) {
            log.warn("{} profiling session {} failed: {}", what, session == null ? "(not started)" : session.id(),
                    outcome.reason());
            return;
        }
        CpuProfiler profiler = cpuProfiler.getIfAvailable();
        Profile profile = profiler == null ? null : profiler.profile(outcome.profileId()).orElse(null);
        if (profile == null) {
            log.info("{} profile {} recorded (no longer in memory)", what, outcome.profileId());
            return;
        }
        ProfileSummary summary = ProfileSummary.of(profile);
        log.info("""
                {} profile {} is ready: {} samples by {}{} over {}, CPU {}% while recording.
                  top self frame: {} ({}% of samples)
                  time in /work methods: {}
                  json:        {}
                  text:        {}
                  flame graph: {}{}""",
                what, profile.id(), profile.recording().samples(), profile.recording().engine(),
                profile.recording().engineDetail() == null ? "" : " (" + profile.recording().engineDetail() + ")",
                Durations.human(profile.recording().duration()),
                profile.cpu().percent() == null ? "?" : fmt(profile.cpu().percent()),
                summary.topSelfFrame(), fmt(summary.topSelfPercent()), summary.workMethodsText(),
                urls.profile(profile.id(), "json"), urls.profile(profile.id(), "text"),
                urls.profile(profile.id(), "html"), trigger == SessionTrigger.REFERENCE
                        ? "\n  later profiles are compared with it: what changed from normal"
                        : profile.comparison() == null ? "" : "\n  what changed: " + urls.profile(profile.id(), "text")
                                + "  (differential flame graph: " + urls.profile(profile.id(), "html")
                                + "&compare=reference)");
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format("%.1f", value);
    }
}
