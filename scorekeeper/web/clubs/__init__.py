"""The clubs wing of the web: a club's pages, its forms, the member cookie."""
