package dev.cpuprofiler.benchmarks.whatchanged;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application "What changed" is proven on from outside: two endpoints whose CPU per request is known and set per
 * request ({@link OrbitLedgerController}), with cpuprofiler through its starter as a user adds it, configured by
 * command-line properties ({@link OrbitLedgerChild} gives them). Prints {@value #READY}{@code <port>} once it serves.
 */
@SpringBootApplication
public class OrbitLedgerApplication {

    /** What it prints, followed by its port, once it is ready. */
    public static final String READY = "ORBIT-LEDGER READY port=";

    public static void main(String[] args) {
        ConfigurableApplicationContext app = SpringApplication.run(OrbitLedgerApplication.class, args);
        System.out.println(READY + ((WebServerApplicationContext) app).getWebServer().getPort());
        System.out.flush();
    }
}
