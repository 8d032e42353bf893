package dev.cpuprofiler.realistic.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import java.math.BigDecimal;

@Entity
public class Product {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "product_seq")
    @SequenceGenerator(name = "product_seq", allocationSize = 100)
    private Long id;

    @Column(nullable = false, unique = true, length = 32)
    private String sku;

    @Column(nullable = false)
    private String name;

    @Column(length = 1000)
    private String description;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    private Category category;

    @Column(precision = 12, scale = 2)
    private BigDecimal listPrice;

    private int stock;

    private double weightKg;

    /** Units sold per week over the last two years, oldest first, comma-separated (as an old ERP exports it). */
    @Column(length = 2000)
    private String weeklySales;

    protected Product() {
    }

    public Product(String sku, String name, String description, Category category, BigDecimal listPrice, int stock,
            double weightKg, String weeklySales) {
        this.sku = sku;
        this.name = name;
        this.description = description;
        this.category = category;
        this.listPrice = listPrice;
        this.stock = stock;
        this.weightKg = weightKg;
        this.weeklySales = weeklySales;
    }

    public Long getId() {
        return id;
    }

    public String getSku() {
        return sku;
    }

    public String getName() {
        return name;
    }

    public String getDescription() {
        return description;
    }

    public Category getCategory() {
        return category;
    }

    public BigDecimal getListPrice() {
        return listPrice;
    }

    public int getStock() {
        return stock;
    }

    public double getWeightKg() {
        return weightKg;
    }

    public String getWeeklySales() {
        return weeklySales;
    }
}
