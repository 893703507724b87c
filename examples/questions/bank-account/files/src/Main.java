public class Main {
    public static void main(String[] args) {
        Account a = new Account(100), b = new Account(0);
        a.transfer(b, 40);
        System.out.println(a.balance() + " " + b.balance());
    }
}
