package dev.cpuprofiler.realistic.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Fills the in-memory database before the web server opens (after every singleton exists, before the context
 * starts its lifecycle), so the first request already sees the whole shop: 40 categories, 3 000 products, 300
 * customers and 2 000 orders of 1-8 lines. Deterministic (one seeded {@link Random}), so runs compare.
 */
@Component
class DataSeeder implements SmartInitializingSingleton {

    static final int TOP_CATEGORIES = 8;
    static final int SUB_CATEGORIES_EACH = 4;
    static final int PRODUCTS = 3_000;
    static final int CUSTOMERS = 300;
    static final int ORDERS = 2_000;

    private static final Logger log = LoggerFactory.getLogger(DataSeeder.class);
    private static final String[] ADJECTIVES = {"Classic", "Compact", "Deluxe", "Eco", "Heavy-duty", "Light",
            "Modular", "Nordic", "Portable", "Pro", "Rustic", "Smart", "Sturdy", "Urban", "Vintage", "Wireless"};
    private static final String[] NOUNS = {"Armchair", "Backpack", "Blender", "Bookcase", "Desk Lamp", "Drill",
            "Espresso Maker", "Headphones", "Kettle", "Monitor", "Rain Jacket", "Rug", "Saucepan", "Scooter",
            "Speaker", "Tent", "Toaster", "Trail Shoes", "Umbrella", "Watch"};
    private static final String[] COUNTRIES = {"DE", "FR", "GB", "IE", "IT", "NL", "PL", "SE"};

    private final CategoryRepository categories;
    private final ProductRepository products;
    private final CustomerRepository customers;
    private final PurchaseOrderRepository orders;
    private final TransactionTemplate transactions;

    DataSeeder(CategoryRepository categories, ProductRepository products, CustomerRepository customers,
            PurchaseOrderRepository orders, TransactionTemplate transactions) {
        this.categories = categories;
        this.products = products;
        this.customers = customers;
        this.orders = orders;
        this.transactions = transactions;
    }

    @Override
    public void afterSingletonsInstantiated() {
        long start = System.nanoTime();
        transactions.executeWithoutResult(status -> seed(new Random(42)));
        log.info("Seeded {} categories, {} products, {} customers, {} orders in {} ms",
                TOP_CATEGORIES * (1 + SUB_CATEGORIES_EACH), PRODUCTS, CUSTOMERS, ORDERS,
                (System.nanoTime() - start) / 1_000_000);
    }

    private void seed(Random random) {
        List<Category> leaves = new ArrayList<>();
        long categoryId = 1;
        for (int t = 0; t < TOP_CATEGORIES; t++) {
            Category top = categories.save(new Category(categoryId++, "Department " + (char) ('A' + t),
                    random.nextDouble(), null));
            for (int s = 0; s < SUB_CATEGORIES_EACH; s++) {
                leaves.add(categories.save(new Category(categoryId++, top.getName() + " / Aisle " + (s + 1),
                        random.nextDouble(), top)));
            }
        }

        List<Product> catalogue = new ArrayList<>(PRODUCTS);
        for (int i = 0; i < PRODUCTS; i++) {
            String name = ADJECTIVES[random.nextInt(ADJECTIVES.length)] + " " + NOUNS[random.nextInt(NOUNS.length)]
                    + " " + (100 + i);
            BigDecimal price = BigDecimal.valueOf(5 + random.nextDouble() * 495).setScale(2, RoundingMode.HALF_UP);
            catalogue.add(new Product(String.format("SKU-%06d", i), name,
                    name + ": " + "a dependable choice for everyday use, backed by a two-year warranty. ".repeat(3),
                    leaves.get(i % leaves.size()), price, random.nextInt(500), 0.2 + random.nextDouble() * 20,
                    weeklySales(random)));
        }
        products.saveAll(catalogue);

        List<Customer> people = new ArrayList<>(CUSTOMERS);
        Customer.Tier[] tiers = Customer.Tier.values();
        for (long c = 1; c <= CUSTOMERS; c++) {
            people.add(new Customer(c, "Customer " + c, COUNTRIES[random.nextInt(COUNTRIES.length)],
                    tiers[random.nextInt(tiers.length)]));
        }
        people = customers.saveAll(people);  // assigned ids: save merges, the managed copies are what orders reference

        LocalDate today = LocalDate.of(2026, 11, 1);
        List<PurchaseOrder> history = new ArrayList<>(ORDERS);
        for (int o = 0; o < ORDERS; o++) {
            PurchaseOrder order = new PurchaseOrder(people.get(random.nextInt(CUSTOMERS)),
                    today.minusDays(random.nextInt(720)));
            int lines = 1 + random.nextInt(8);
            for (int l = 0; l < lines; l++) {
                order.addLine(catalogue.get(random.nextInt(PRODUCTS)), 1 + random.nextInt(12));
            }
            history.add(order);
        }
        orders.saveAll(history);
    }

    /** Two years of weekly sales: a level, a trend, a yearly season and noise. */
    private static String weeklySales(Random random) {
        double level = 20 + random.nextInt(200);
        double trend = (random.nextDouble() - 0.4) * 0.8;
        double season = random.nextDouble() * 0.5;
        StringBuilder csv = new StringBuilder(104 * 4);
        for (int week = 0; week < 104; week++) {
            double value = (level + trend * week) * (1 + season * Math.sin(2 * Math.PI * week / 52.0))
                    + random.nextGaussian() * level * 0.1;
            if (week > 0) {
                csv.append(',');
            }
            csv.append(Math.max(0, Math.round(value)));
        }
        return csv.toString();
    }
}
