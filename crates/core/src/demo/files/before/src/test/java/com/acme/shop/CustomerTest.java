package com.acme.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CustomerTest {

    @Test
    public void keepsItsName() {
        assertEquals("Ada", new Customer("Ada").getName());
    }

    @Test
    public void hasNoIdBeforeSaving() {
        assertEquals(null, new Customer("Ada").getId());
    }
}
