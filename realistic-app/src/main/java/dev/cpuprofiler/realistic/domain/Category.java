package dev.cpuprofiler.realistic.domain;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;

@Entity
public class Category {

    @Id
    private Long id;

    private String name;

    /** Seasonality of the category's demand, 0 (flat) to 1 (strongly seasonal). */
    private double seasonality;

    @ManyToOne(fetch = FetchType.LAZY)
    private Category parent;

    protected Category() {
    }

    public Category(Long id, String name, double seasonality, Category parent) {
        this.id = id;
        this.name = name;
        this.seasonality = seasonality;
        this.parent = parent;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public double getSeasonality() {
        return seasonality;
    }

    public Category getParent() {
        return parent;
    }
}
