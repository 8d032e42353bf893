package dev.cpuprofiler.realistic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small shop: a catalogue of a few thousand products and the order history of a few hundred customers in an
 * in-memory H2 database (seeded at start-up), served as Thymeleaf pages and JSON through Spring MVC, Spring Data
 * JPA, transactional services and a pricing pipeline. Its request stacks are as deep as a real service's (90-115
 * Java frames from {@code Thread.run} to the hot method, up to about 195): what {@code RealisticProfileTest}
 * profiles.
 */
@SpringBootApplication
public class RealisticApplication {

    public static void main(String[] args) {
        SpringApplication.run(RealisticApplication.class, args);
    }
}
