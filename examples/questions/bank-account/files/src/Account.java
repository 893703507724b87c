public class Account {
    private long balance;

    public Account(long balance) { this.balance = balance; }

    public long balance() { return balance; }

    public void transfer(Account to, long amount) {
        balance -= amount;
        to.balance += amount;
    }
}
