package com.acme;

import org.junit.Assert;
import org.junit.Test;

public class CartTest {
    @Test
    public void addsItems() {
        Cart cart = new Cart();
        cart.add("apple");
        Assert.assertEquals(1, cart.size());
    }
}
