package com.acme.shop;

import java.math.BigDecimal;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.ManyToOne;

@Entity
public class Order {

    @Id
    private Long id;

    @ManyToOne
    private Customer customer;

    private BigDecimal total;

    public BigDecimal getTotal() {
        return total;
    }
}
