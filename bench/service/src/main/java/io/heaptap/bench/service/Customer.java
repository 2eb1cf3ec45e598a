package io.heaptap.bench.service;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

@Entity
public class Customer {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    private String name;
    private String email;
    /** 0 (none) to 3: the discount a quote gives, in steps of 5%. */
    private int tier;

    protected Customer() {
    }

    public Customer(String name, String email, int tier) {
        this.name = name;
        this.email = email;
        this.tier = tier;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public String getEmail() {
        return email;
    }

    public int getTier() {
        return tier;
    }
}
