package dev.cpuprofiler.realistic.domain;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;

@Entity
public class Customer {

    public enum Tier { STANDARD, SILVER, GOLD, PLATINUM }

    @Id
    private Long id;

    private String name;

    private String country;

    @Enumerated(EnumType.STRING)
    private Tier tier;

    protected Customer() {
    }

    public Customer(Long id, String name, String country, Tier tier) {
        this.id = id;
        this.name = name;
        this.country = country;
        this.tier = tier;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public String getCountry() {
        return country;
    }

    public Tier getTier() {
        return tier;
    }
}
